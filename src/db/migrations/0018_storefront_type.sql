ALTER TABLE "product_attributes" ADD COLUMN "metafield" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "storefront_type" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "sku_generated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "sku_generated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "import_images" ADD COLUMN "alt_text" text;--> statement-breakpoint
ALTER TABLE "pending_images" ADD COLUMN "alt_text" text;--> statement-breakpoint
CREATE UNIQUE INDEX "product_attributes_org_metafield_uq" ON "product_attributes" USING btree ("organization_id","metafield");