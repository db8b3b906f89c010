"""HTTP requests composed against a deployed sample, and their README templates."""
