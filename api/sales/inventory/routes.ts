import { Hono } from "hono";
import { withEtag } from "../../lib/preconditions.ts";
import { z } from "zod";
import { type AppEnv, ctxOf } from "../../lib/context.ts";
import { requestOrigin } from "../../lib/public_origin.ts";
import { listResponse } from "../../lib/list_query.ts";
import { IdParam, JsonObject } from "../../lib/validate.ts";
import { valid } from "../../lib/validator.ts";
import { uploadLimit } from "../../files/routes.ts";
import {
  deleteInventory,
  downloadInventory,
  downloadInventoryLocations,
  everyInventoryRow,
  everyLocationRow,
  inventoryLabels,
  InventoryListQuery,
  listInventory,
  listInventoryLocations,
  LocationListQuery,
  previewInventoryBatch,
  saveInventory,
  saveInventoryBatch,
  transferBusinessUnit,
  transferLocation,
  updateQuantities,
} from "./service.ts";

/** Lists and objects alike: the service parses after its permission check. */
const JsonBody = z.unknown();

export const inventoryRoutes = new Hono<AppEnv>()
  .get("/sales/inventory", valid("query", InventoryListQuery), (c) => {
    const q = c.req.valid("query");
    return listResponse(q, (q) => listInventory(ctxOf(c), q), "results", {
      rows: () => everyInventoryRow(ctxOf(c), q, (r) => r),
    });
  })
  .get("/sales/inventory/download", valid("query", InventoryListQuery), (c) => {
    return downloadInventory(ctxOf(c), c.req.valid("query"));
  })
  .get("/sales/inventory-locations", valid("query", LocationListQuery), (c) => {
    const q = c.req.valid("query");
    return listResponse(q, (q) => listInventoryLocations(ctxOf(c), q), "results", {
      rows: () => everyLocationRow(ctxOf(c), q, (r) => r),
    });
  })
  .get("/sales/inventory-locations/download", valid("query", LocationListQuery), (c) => {
    return downloadInventoryLocations(ctxOf(c), c.req.valid("query"));
  })
  .get("/sales/inventory/labels", (c) => {
    return inventoryLabels(ctxOf(c), c.req.query(), requestOrigin(c));
  })
  .post("/sales/inventory/batch", uploadLimit, valid("json", JsonBody), async (c) => {
    return c.json(await saveInventoryBatch(ctxOf(c), c.req.valid("json")));
  })
  .post("/sales/inventory/batch/preview", uploadLimit, valid("json", JsonBody), async (c) => {
    return c.json(await previewInventoryBatch(ctxOf(c), c.req.valid("json")));
  })
  .patch("/sales/inventory/quantity", valid("json", JsonBody), async (c) => {
    return c.json(await updateQuantities(ctxOf(c), c.req.valid("json")));
  })
  .post("/sales/inventory/business-unit-transfer", valid("json", JsonObject), async (c) => {
    return c.json(await transferBusinessUnit(ctxOf(c), c.req.valid("json")));
  })
  .post("/sales/inventory/location-transfer", valid("json", JsonObject), async (c) => {
    return c.json(await transferLocation(ctxOf(c), c.req.valid("json")));
  })
  .post("/sales/inventory", valid("json", JsonObject), async (c) => {
    return c.json(await saveInventory(ctxOf(c), c.req.valid("json")));
  })
  .put("/sales/inventory", valid("json", JsonObject), async (c) => {
    return withEtag(c, await saveInventory(ctxOf(c), c.req.valid("json"), { update: true }));
  })
  .delete("/sales/inventory/:id", valid("param", IdParam), async (c) => {
    return c.json(await deleteInventory(ctxOf(c), c.req.valid("param").id));
  });
