import { describeAxe } from "./content-quality";

describeAxe("dark");
