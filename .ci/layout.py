#!/usr/bin/env python3
"""Reports read on a desktop and a phone (issue 64): each report.html given is opened in headless
Chromium at 390 and 1200 px wide, with a measuring script injected into a copy (the page itself
stays script-free). A page fails when it scrolls sideways, when any chart text reaches outside its
chart, or when any chart text is drawn under 7 px tall.

    python3 .ci/layout.py REPORT.html...        # exit 1 naming every failure
"""
import html
import json
import os
import re
import subprocess
import sys
import tempfile

WIDTHS = (390, 1200)
MIN_PX = 7.0

MEASURE = """
<script>
(function () {
  var out = {scroll: document.documentElement.scrollWidth - window.innerWidth, bad: []};
  document.querySelectorAll('svg').forEach(function (svg, k) {
    var b = svg.getBoundingClientRect();
    var vb = svg.viewBox && svg.viewBox.baseVal;
    var scale = vb && vb.width ? b.width / vb.width : 1;
    var title = svg.getAttribute('aria-label') || ('chart ' + k);
    svg.querySelectorAll('text').forEach(function (t) {
      var r = t.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return;
      var words = (t.childNodes.length ? Array.prototype.filter.call(t.childNodes, function (n) {
        return n.nodeType === 3; }).map(function (n) { return n.textContent; }).join('') : t.textContent).slice(0, 50);
      if (r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) {
        out.bad.push(title + ': "' + words + '" reaches outside the chart');
      }
      var px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (px < %MIN%) out.bad.push(title + ': "' + words + '" is drawn ' + px.toFixed(1) + ' px tall');
    });
  });
  var pre = document.createElement('pre');
  pre.id = 'layout-measured';
  pre.style.whiteSpace = 'pre-wrap';
  pre.style.wordBreak = 'break-all';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
""".replace("%MIN%", str(MIN_PX))


def measure(page, width):
    if not os.path.isfile(page):
        return ["no such page (the run that writes it failed?)"]
    with open(page, encoding="utf-8") as f:
        text = f.read()
    if "<script" in text.lower():
        return ["the page holds a script (reports are script-free)"]
    with tempfile.TemporaryDirectory() as d:
        copy = os.path.join(d, "measured.html")
        with open(copy, "w", encoding="utf-8") as f:
            f.write(text.replace("</body>", MEASURE + "</body>"))
        dom = subprocess.run(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
             "--window-size=%d,1000" % width, "--dump-dom", "file://" + copy],
            capture_output=True, text=True, timeout=120).stdout
    m = re.search(r'<pre id="layout-measured"[^>]*>(.*?)</pre>', dom, re.S)
    if not m:
        return ["the measuring script did not run"]
    out = json.loads(html.unescape(m.group(1)))
    bad = list(out["bad"])
    if out["scroll"] > 0:
        bad.insert(0, "the page scrolls sideways by %d px" % out["scroll"])
    return bad


def main(pages):
    failed = 0
    for page in pages:
        for width in WIDTHS:
            bad = measure(page, width)
            for b in bad[:20]:
                print("%s at %d px: %s" % (page, width, b))
            if len(bad) > 20:
                print("%s at %d px: and %d more" % (page, width, len(bad) - 20))
            failed += bool(bad)
    print("layout: %d pages at %s px, %d failed" % (len(pages), " and ".join(map(str, WIDTHS)), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
