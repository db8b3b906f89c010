"""The request composer's panes: where requests come from (:mod:`.sources`: the README's
endpoints and the history), the editor (:mod:`.editor`) and the response (:mod:`.response`);
:mod:`.fields` reads the editor's text fields (no Textual)."""
