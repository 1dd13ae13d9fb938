"""Judgment by meaning: does this evidence state the answer to the question (``answerability``), and
does this premise entail this claim (support, in ``verify``'s scorer for now). Zero-token by default:
a fast tier of trained features, and a small pair classifier fine-tuned from multilingual-e5-small
run only where the fast tier is unsure."""
