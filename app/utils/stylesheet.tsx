import { createContext, useContext } from "react";

/**
 * The site's one stylesheet (Tailwind's output, about 9 KB gzip), inlined in <head> so the first
 * paint waits for no second request (docs/decisions/010-performance.md, "Inlined stylesheet").
 * The server render is given the text by entry.server.tsx; in the browser, entry.client.tsx reads
 * it back from the element before hydrating, so both renders agree and the client bundle never
 * carries the CSS. Should React ever re-create the element, it keeps its styles.
 */
const StylesheetContext = createContext<string>("");

export const StylesheetProvider = StylesheetContext.Provider;

/** The element's id: where the browser's copy is read back from. */
export const STYLESHEET_ID = "site-css";

export function InlineStylesheet() {
  return <style id={STYLESHEET_ID} dangerouslySetInnerHTML={{ __html: useContext(StylesheetContext) }} />;
}
