"""Experiment code that several demos share: the contenders and their care, training and
scoring a classifier, the shared language models, sentence tracing, documents, the recap."""
