/**
 * The words of the content pages, one place per fact. Figures the product states two ways stay
 * as it puts them page by page: 11 ventures on Investors, 9 / 8 / 1 on Portfolio.
 *
 * One module per page (app/content/copy/), so a page's JavaScript carries its own words only.
 */
export type { Card, Tile } from "./copy/types";
export { landingCopy } from "./copy/landing";
export { portfolioCopy } from "./copy/portfolio";
export { investorsCopy } from "./copy/investors";
export { fundingCopy } from "./copy/funding";
export { consultancyCopy } from "./copy/consultancy";
export { partnersCopy } from "./copy/partners";
export { legalCopy } from "./copy/legal";
export { helpCopy } from "./copy/help";
export { settingsCopy } from "./copy/settings";
