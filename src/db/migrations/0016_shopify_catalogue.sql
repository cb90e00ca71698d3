CREATE TABLE "pending_images" (
	"organization_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"url" text NOT NULL,
	"position" integer NOT NULL,
	"alt_text" text,
	"attempts" integer DEFAULT 1 NOT NULL,
	"error" text NOT NULL,
	"failed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pending_images_product_id_url_pk" PRIMARY KEY("product_id","url")
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "default_currency" text;--> statement-breakpoint
ALTER TABLE "product_attributes" ADD COLUMN "metafield" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "seo_title" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "seo_description" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "gift_card" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "taxonomy_category" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "weight" numeric(19, 4);--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "barcode" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "compare_at_price" numeric(19, 4);--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "weight_unit" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "inventory_policy" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "inventory_tracked" boolean;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "taxable" boolean;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "requires_shipping" boolean;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "storefront_type" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "sku_generated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "barcode" text;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "compare_at_price" numeric(19, 4);--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "weight_unit" text;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "inventory_policy" text;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "inventory_tracked" boolean;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "taxable" boolean;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "requires_shipping" boolean;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "sku_generated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "import_images" ADD COLUMN "alt_text" text;--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN "images_failed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pending_images" ADD CONSTRAINT "pending_images_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_images" ADD CONSTRAINT "pending_images_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_attributes_org_metafield_uq" ON "product_attributes" USING btree ("organization_id","metafield");