#!/usr/bin/env python3
"""Writes an HTML page that looks like a notebook cell and its output: the
code, then what the notebook shows for its value, ``Distribution._repr_html_()``
(the chart, an inline SVG). docs/python-notebook.png is this page in a
headless browser:

    python crates/nutshell-py/tools/notebook_cell.py > cell.html
    chromium --headless --no-sandbox --hide-scrollbars --window-size=760,420 \\
        --screenshot=docs/python-notebook.png cell.html
"""

import html

import nutshell

CODE = 'import nutshell\nnutshell.odds("4d6kh3")'

chart = nutshell.odds("4d6kh3")._repr_html_()
print(f"""<!doctype html>
<html><head><meta charset="utf-8"><style>
body {{ font-family: sans-serif; margin: 24px; background: #fff; }}
.cell {{ display: flex; gap: 8px; }}
.prompt {{ width: 64px; color: #303f9f; font-family: monospace; font-size: 14px; text-align: right; padding-top: 8px; }}
.out .prompt {{ color: #d84315; }}
.input {{ flex: 1; background: #f7f7f7; border: 1px solid #e0e0e0; border-radius: 2px;
          padding: 8px; font-family: monospace; font-size: 14px; white-space: pre; }}
.output {{ flex: 1; padding-top: 6px; }}
.kw {{ color: #008000; font-weight: bold; }} .str {{ color: #ba2121; }}
</style></head><body>
<div class="cell"><div class="prompt">In [1]:</div><div class="input">{html.escape(CODE)
    .replace("import", '<span class="kw">import</span>')
    .replace('"4d6kh3"', '<span class="str">"4d6kh3"</span>')}</div></div>
<div class="cell out"><div class="prompt">Out[1]:</div><div class="output">{chart}</div></div>
</body></html>""")
