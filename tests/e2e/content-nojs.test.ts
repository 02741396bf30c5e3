import { describeContentPages } from "./content-pages";

describeContentPages(false);
