import { createContext, useContext } from "react";

/**
 * The site's one stylesheet, inlined in the <head> of every document (docs/decisions/
 * 022-phone-speed.md): a phone on a slow network paints after the HTML alone, one round trip
 * sooner than with a render-blocking <link>. Only the server has the text (entry.server.tsx
 * provides it); the browser renders an empty string in its place, which hydration leaves alone
 * (React does not patch `dangerouslySetInnerHTML` while hydrating, and "" never changes after),
 * so the client bundle carries no copy of the CSS.
 */
const StylesheetContext = createContext("");

export const StylesheetProvider = StylesheetContext.Provider;

export function InlineStylesheet() {
  return <style dangerouslySetInnerHTML={{ __html: useContext(StylesheetContext) }} />;
}
