"""A word-level tokenizer: words and punctuation marks are tokens, anything else is `<unk>`.

    >>> tok = Tokenizer.from_text("We propose a model, the Transformer.")
    >>> tok.tokenize("We propose a model, the Transformer.")
    ['We', 'propose', 'a', 'model', ',', 'the', 'Transformer', '.']
    >>> tok.decode(tok.encode("We propose a model, the Transformer."))
    'We propose a model, the Transformer.'

Words keep their case, so the corpus decodes back to itself exactly. A word the
vocabulary lacks as typed but has in another case ("transformer") maps to the known form.
"""
import re
from collections import Counter

UNK = "<unk>"
TOKEN = re.compile(r"\d+(?:\.\d+)?|\w+(?:[-']\w+)*|[^\w\s]")  # a number, a word (hyphens joined), or one mark
NO_SPACE_BEFORE = set(".,;:!?)%")
NO_SPACE_AFTER = set("(")


def tokenize(text: str) -> list[str]:
    return TOKEN.findall(text)


def join(tokens: list[str]) -> str:
    """Tokens back to text: words separated by spaces, punctuation attached where English puts it."""
    text = ""
    for token in tokens:
        if text and token not in NO_SPACE_BEFORE and text[-1] not in NO_SPACE_AFTER:
            text += " "
        text += token
    return text


class Tokenizer:
    def __init__(self, vocab: list[str]):
        assert vocab[0] == UNK, "id 0 is the unknown token"
        self.vocab = vocab
        self.ids = {token: i for i, token in enumerate(vocab)}
        self.unk_id = 0

    @classmethod
    def from_text(cls, text: str) -> "Tokenizer":
        """Every token of `text`, most frequent first (ties alphabetical, so the ids never vary)."""
        counts = Counter(tokenize(text))
        return cls([UNK] + sorted(counts, key=lambda token: (-counts[token], token)))

    def __len__(self) -> int:
        return len(self.vocab)

    def tokenize(self, text: str) -> list[str]:
        return tokenize(text)

    def token_id(self, token: str) -> int:
        """The id of `token`, of the same word in another case, or of `<unk>`."""
        for form in (token, token.lower(), token.capitalize()):
            if form in self.ids:
                return self.ids[form]
        return self.unk_id

    def encode(self, text: str) -> list[int]:
        return [self.token_id(token) for token in tokenize(text)]

    def decode(self, ids: list[int]) -> str:
        return join([self.vocab[i] for i in ids])
