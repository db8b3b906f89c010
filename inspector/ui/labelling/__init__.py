"""The labelling screen's parts: the panes it is composed of (:mod:`.progress`, :mod:`.detail`)
and the plain logic behind its keys (:mod:`.item`, :mod:`.navigation`, :mod:`.saving`,
:mod:`.loader`), which needs no Textual."""
