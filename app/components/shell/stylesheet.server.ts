import { ventureBackgroundRules } from "~/features/ventures/venture-colour";
import tailwind from "~/tailwind.css?inline";

/**
 * The text of the site's one stylesheet, inlined in every document (inline-stylesheet.tsx):
 * Tailwind's output and the ventures' colour classes. The same for every page of a build, so the
 * CSP allows it by its SHA-256 (the worker hashes this text once per isolate, 062).
 */
export const stylesheet = tailwind + ventureBackgroundRules();
