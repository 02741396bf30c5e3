import { createContext, useContext } from "react";

/**
 * The site's one stylesheet, inlined in the <head> of every document (docs/decisions/
 * 025-phone-speed.md): a phone on a slow network paints after the HTML alone, one round trip
 * sooner than with a render-blocking <link>. The server has the text (entry.server.tsx provides
 * it); the browser takes it from the document it hydrates, so the client bundle carries no second
 * copy and a render from scratch (React's fallback after a failed hydration) keeps the styles.
 */
const ID = "stylesheet";

const StylesheetContext = createContext(
  typeof document === "undefined" ? "" : (document.getElementById(ID)?.textContent ?? ""),
);

export const StylesheetProvider = StylesheetContext.Provider;

export function InlineStylesheet() {
  return <style id={ID} dangerouslySetInnerHTML={{ __html: useContext(StylesheetContext) }} />;
}
