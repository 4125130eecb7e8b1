"""The shared language model of slides 6 to 12: cold training time, loading its weights after a
restart, and the time of one attention request for a new sentence once the model is kept.

    python -m benchmarks.language_model_times [--device cpu] [--threads N]

(`benchmarks.demo_times` gives each demo's cold time and the time of a cached result.)
"""
import argparse
import tempfile
import time
from pathlib import Path

import torch

from benchmarks.stats import describe_ms
from demos import attention_matrix, attention_web
from demos.runtime.device import device_label, pick_device
from demos.runtime.runner import run_demo
from demos.runtime.storage import ModelStore, using_store
from demos.shared.language_models import SHARED, language_model

SENTENCES = [
    "We introduce a simple test for recurrent networks.",
    "Our model learns word representations from raw text.",
    "Attention lets each position gather information in one step.",
    "The decoder attends to the encoder at every step.",
    "We show that small models can learn simple arithmetic.",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="auto")
    parser.add_argument("--threads", type=int, default=None, help="PyTorch threads (default: PyTorch's choice)")
    parser.add_argument("--repeats", type=int, default=4, help="passes over the sentences for each demo")
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    device = pick_device(args.device)
    print(f"{device_label(device)}, {torch.get_num_threads()} PyTorch threads; shared model: {SHARED}")

    with tempfile.TemporaryDirectory() as tmp:
        store = ModelStore(Path(tmp))
        with using_store(store):
            started = time.perf_counter()
            _, info, trained = language_model(SHARED, device)
            cold = time.perf_counter() - started
        assert trained
        print(f"cold: trained {info['steps']} steps in {cold:.2f} s ({info['parameters']:,} parameters, "
              f"held-out perplexity {info['held_out_perplexity']:.0f})")

        with using_store(ModelStore(Path(tmp))):  # a restarted server: the weights come from disk
            started = time.perf_counter()
            _, _, trained = language_model(SHARED, device)
            print(f"after a restart: loaded from disk in {(time.perf_counter() - started) * 1000:.1f} ms")
        assert not trained

        for demo in (attention_web, attention_matrix):
            seconds = []
            for _ in range(args.repeats):
                for sentence in SENTENCES:  # a result not cached yet; the model is
                    started = time.perf_counter()
                    run_demo(demo, {"sentence": sentence}, device=device, store=store)
                    seconds.append(time.perf_counter() - started)
            print(f"{demo.ID:<17} new sentence, model kept: {describe_ms(seconds)}")


if __name__ == "__main__":
    main()
