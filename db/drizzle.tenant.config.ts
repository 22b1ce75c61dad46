import { defineConfig } from "drizzle-kit";
export default defineConfig({ dialect: "sqlite", schema: "./db/schema/mod.ts", out: "./db/migrations" });
