"""Training code: the data builders and fitting behind the weights shipped in the package (support
scorer, judge). Not part of the runtime package; scripts/ and bench/ import it from the checkout."""
