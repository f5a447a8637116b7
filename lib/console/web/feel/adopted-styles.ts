/**
 * CodeMirror's styles under the console's policy (`style-src 'self'`,
 * lib/console/headers.ts). CodeMirror defines its styles in JavaScript as
 * style-mod modules and mounts them when an editor opens; in a document,
 * style-mod writes them into a <style> element, which the policy refuses
 * (the editor then opens unstyled). In a shadow root, style-mod puts the same
 * rules, in the same order, into a constructed style sheet the root adopts:
 * CSSOM, made by the page's own script, which the policy leaves alone. So a
 * document is handed to style-mod as such a root, one whose adopted sheets
 * are the document's. No nonce (the page is served from S3 as it is, the same
 * bytes for every response) and no 'unsafe-inline'.
 *
 * Imported for its effect, before any editor opens: the mount is only called
 * when an editor is made, and every CodeMirror package shares this one
 * style-mod (the lockfile holds one copy; the browser test fails on any style
 * the policy refuses).
 */
import { StyleModule } from 'style-mod';

type Root = Parameters<typeof StyleModule.mount>[0];

const mountInStyleElement = StyleModule.mount.bind(StyleModule);
/** Each document's stand-in: no `head`, which is what makes style-mod adopt a sheet, and the document's adopted sheets. */
const standIns = new WeakMap<Document, Root>();

function standInFor(document: Document): Root {
  let standIn = standIns.get(document);
  if (!standIn) {
    standIn = {
      ownerDocument: document,
      get adoptedStyleSheets() {
        return document.adoptedStyleSheets;
      },
      set adoptedStyleSheets(sheets: CSSStyleSheet[]) {
        document.adoptedStyleSheets = sheets;
      },
    } as unknown as Root;
    standIns.set(document, standIn);
  }
  return standIn;
}

StyleModule.mount = (root, modules, options) => mountInStyleElement(root instanceof Document ? standInFor(root) : root, modules, options);
