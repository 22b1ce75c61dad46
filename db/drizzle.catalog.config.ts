import { defineConfig } from "drizzle-kit";
export default defineConfig({
  dialect: "sqlite",
  schema: "./db/catalog/schema.ts",
  out: "./db/catalog/migrations",
});
