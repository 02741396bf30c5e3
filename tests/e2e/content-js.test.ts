import { describeContentPages } from "./content-pages";

describeContentPages(true);
