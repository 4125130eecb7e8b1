"""What a student reads to learn: the three models, the one training loop, the made-up tasks,
the corpus and its tokenizer, and the curve fits."""
