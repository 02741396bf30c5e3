import { describeWalk } from "./content-quality";

describeWalk(0, "dark");
