-- Stock is one model (docs/pim-api.md, "Warehouses, stock and barcode"): a product with variants has the sum of its
-- variants' stock and no warehouse levels of its own. Existing variants keep their stock_quantity (they have no levels
-- yet); the levels of products that have variants, which nothing pushed (variants' stock went to the shop instead),
-- are removed, and those products' stock becomes the sum of their variants' (held within the int range).
DELETE FROM "product_stock" s USING "variants" v WHERE v."product_id" = s."product_id";
--> statement-breakpoint
UPDATE "products" p SET "stock" = greatest(least(t.total, 2147483647), -2147483648)::int
FROM (SELECT "product_id", sum("stock_quantity") AS total FROM "variants" GROUP BY "product_id") t
WHERE t."product_id" = p."id" AND p."stock" IS DISTINCT FROM greatest(least(t.total, 2147483647), -2147483648)::int;
