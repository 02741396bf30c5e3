import { describeAxe } from "./content-quality";

describeAxe("light");
