// The XSS payloads of the sweep and the watch that counts any of them running (xss.spec.ts,
// chat-xss.spec.ts): _x() is installed before any page script, and dialogs are counted too.
import type { Page } from '@playwright/test'

/** 50 payloads: tags, attributes, URLs, template and Markdown tricks; each calls _x() (or alert) if it ever runs. */
export const PAYLOADS = [
  '<script>_x()</script>',
  '<img src=x onerror=_x()>',
  '<svg onload=_x()>',
  '<svg><script>_x()</script></svg>',
  '<body onload=_x()>',
  '<iframe src="javascript:_x()">',
  '<iframe srcdoc="<script>parent._x()</script>">',
  '<a href="javascript:_x()">a</a>',
  '<input autofocus onfocus=_x()>',
  '<details open ontoggle=_x()>',
  '<video><source onerror=_x()></video>',
  '<audio src=x onerror=_x()>',
  '<marquee onstart=_x()>',
  '<object data="javascript:_x()">',
  '<embed src="javascript:_x()">',
  '<math><a href="javascript:_x()">m</a></math>',
  '<form><button formaction=javascript:_x()>b',
  '<isindex action=javascript:_x()>',
  '<select autofocus onfocus=_x()>',
  '<textarea autofocus onfocus=_x()>',
  '<keygen autofocus onfocus=_x()>',
  '<div style="background:url(javascript:_x())">',
  '<style>@import "javascript:_x()";</style>',
  '<link rel=import href="data:text/html,<script>_x()</script>">',
  '<meta http-equiv="refresh" content="0;javascript:_x()">',
  '<base href="javascript:_x()//">',
  '"><script>_x()</script>',
  "'><img src=x onerror=_x()>",
  '</textarea><script>_x()</script>',
  '</title><script>_x()</script>',
  '</script><script>_x()</script>',
  '<scr<script>ipt>_x()</script>',
  '<SCRIPT SRC=data:,_x()></SCRIPT>',
  '<img src="x" onerror="&#95;x()">',
  '<img src=x onerror=\\u005fx()>',
  '<img/src/onerror=_x()>',
  '<svg/onload=_x()//',
  '"onmouseover="_x()"',
  'javascript:_x()',
  'data:text/html,<script>_x()</script>',
  '{{constructor.constructor("_x()")()}}',
  '${_x()}',
  '<!--<img src="--><img src=x onerror=_x()//">',
  '<noscript><p title="</noscript><img src=x onerror=_x()>">',
  '<template><img src=x onerror=_x()></template>',
  '[x](javascript:_x())',
  '![x](x" onerror="_x())',
  '<img src=x onerror=alert(1)>',
  '<script>alert(document.domain)</script>',
  '<svg><animate onbegin=_x() attributeName=x>',
]

/**
 * Watches a page for payloads that run: _x() (installed before any page script, in every frame)
 * and alert/confirm/prompt dialogs are counted here, on the test's side, so a run on a page the
 * test has since navigated away from still counts.
 */
export async function watchForScripts(page: Page): Promise<() => Promise<number>> {
  let runs = 0
  page.on('dialog', (dialog) => {
    runs++
    void dialog.dismiss()
  })
  await page.exposeFunction('__xssRan', () => {
    runs++
  })
  await page.addInitScript(() => {
    const w = window as unknown as { _x: () => void; __xssRan: () => Promise<void> }
    w._x = () => void w.__xssRan()
  })
  return async () => runs
}
