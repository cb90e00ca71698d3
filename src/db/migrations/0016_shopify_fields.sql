ALTER TABLE "organizations" ADD COLUMN "default_currency" text;--> statement-breakpoint
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
ALTER TABLE "variants" ADD COLUMN "barcode" text;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "compare_at_price" numeric(19, 4);--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "weight_unit" text;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "inventory_policy" text;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "inventory_tracked" boolean;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "taxable" boolean;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "requires_shipping" boolean;