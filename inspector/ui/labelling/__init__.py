"""The labelling screen's parts: the regions it is composed of (:mod:`.queue`, :mod:`.detail`,
:mod:`.progress`), which own their state and post messages to the screen, and the plain logic
behind its keys (:mod:`.item`, :mod:`.navigation`, :mod:`.saving`, :mod:`.loader`,
:mod:`.confirm`), which needs no Textual widgets."""
