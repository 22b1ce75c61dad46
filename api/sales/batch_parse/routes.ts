import { Hono } from "hono";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { AppError } from "../../../lib/errors.ts";
import { uploadLimit } from "../../files/routes.ts";
import { parseBatchFile } from "./service.ts";

/** The batch upload grid's "Choose file": multipart with a `file` part; answers `{rows: string[][]}`. */
export const batchParseRoutes = new Hono<AppEnv>()
  .post("/sales/batch/parse", uploadLimit, async (c) => {
    const form = await c.req.parseBody().catch(() => {
      throw new AppError("bad_request", "Malformed request body.");
    });
    return c.json(await parseBatchFile(ctxOf(c), form.file));
  });
