"""Legal references in English and Vietnamese, in one place for ingest, retrieval and verification.

- ``markers``   structure lines of a document ("Điều 5.", "Article 6", "2.", "a)", "(iv)") and numbering
- ``labels``    citable labels and language-neutral keys of provisions ("khoản 2 Điều 17", "art:17/par:2")
- ``keys``      a written label to its key, and a label to the provision it names in a document
- ``mentions``  references written inside a provision's text, and codified-article origins
- ``xrefs``     those references resolved to provisions of the same document
- ``query``     references and document names in a question or an answer sentence
- ``resolve``   a question's references resolved against the documents of an index
"""
