import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { STYLESHEET_ID, StylesheetProvider } from "~/utils/stylesheet";

// Unhandled promise rejections are logged as warnings and suppressed (never an uncaught error).
window.addEventListener("unhandledrejection", (event) => {
  console.warn("Unhandled promise rejection:", event.reason);
  event.preventDefault();
});

// The inlined stylesheet as the server sent it (utils/stylesheet.tsx): the same text in both renders.
const stylesheet = document.getElementById(STYLESHEET_ID)?.textContent ?? "";

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <StylesheetProvider value={stylesheet}>
        <RemixBrowser />
      </StylesheetProvider>
    </StrictMode>,
  );
});
