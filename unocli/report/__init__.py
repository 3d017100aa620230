"""Reports: the report model, rendering to Markdown, plots, number formatting and the analyses."""
