import { defineConfig } from "drizzle-kit";

// `npx drizzle-kit generate` writes a new SQL migration into migrations/ from app/db/schema.ts;
// `wrangler d1 migrations apply` applies it.
export default defineConfig({
  dialect: "sqlite",
  schema: "./app/db/schema.ts",
  out: "./migrations",
});
