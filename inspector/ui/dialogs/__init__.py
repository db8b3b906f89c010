"""Modal dialogs shared by screens: one question each."""
