"""pokerpipe's command line (Typer): one module per command; no kernels here."""
