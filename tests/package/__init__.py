"""What ships around the code: docs/api.md, the README's snippets, the examples, the distribution's metadata."""
