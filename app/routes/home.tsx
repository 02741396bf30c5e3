// "/" and "/home" are both home.
export { default, meta } from "./_index";
