CREATE TABLE "sandbox_locations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"name" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_media" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" bigint NOT NULL,
	"original_source" text NOT NULL,
	"alt" text,
	"position" integer NOT NULL,
	"status" text DEFAULT 'READY' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_metafield_definitions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"owner_type" text NOT NULL,
	"namespace" text NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"unique_values" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_product_metafields" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" bigint NOT NULL,
	"store_id" integer NOT NULL,
	"namespace" text NOT NULL,
	"key" text NOT NULL,
	"type" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_products" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"handle" text NOT NULL,
	"title" text NOT NULL,
	"description_html" text DEFAULT '' NOT NULL,
	"vendor" text DEFAULT '' NOT NULL,
	"product_type" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"seo" jsonb DEFAULT '{"title":null,"description":null}'::jsonb NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_variants" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" bigint NOT NULL,
	"sku" text,
	"price" text DEFAULT '0.00' NOT NULL,
	"compare_at_price" text,
	"barcode" text,
	"option_values" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"inventory" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_mappings" ADD COLUMN "storefront_state" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "bucket_size" integer;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "restore_rate" integer;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "error_rate" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "timeout_rate" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "fail_after_commit_rate" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "latency_ms" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "fault_seed" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "config_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_locations" ADD CONSTRAINT "sandbox_locations_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_media" ADD CONSTRAINT "sandbox_media_product_id_sandbox_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."sandbox_products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_metafield_definitions" ADD CONSTRAINT "sandbox_metafield_definitions_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_product_metafields" ADD CONSTRAINT "sandbox_product_metafields_product_id_sandbox_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."sandbox_products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_product_metafields" ADD CONSTRAINT "sandbox_product_metafields_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_products" ADD CONSTRAINT "sandbox_products_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_variants" ADD CONSTRAINT "sandbox_variants_product_id_sandbox_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."sandbox_products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_locations_store_idx" ON "sandbox_locations" USING btree ("store_id","id");--> statement-breakpoint
CREATE INDEX "sandbox_media_product_idx" ON "sandbox_media" USING btree ("product_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_metafield_definitions_uq" ON "sandbox_metafield_definitions" USING btree ("store_id","owner_type","namespace","key");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_product_metafields_product_key_uq" ON "sandbox_product_metafields" USING btree ("product_id","namespace","key");--> statement-breakpoint
CREATE INDEX "sandbox_product_metafields_lookup_idx" ON "sandbox_product_metafields" USING btree ("store_id","namespace","key","value");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_products_store_handle_uq" ON "sandbox_products" USING btree ("store_id","handle");--> statement-breakpoint
CREATE INDEX "sandbox_products_store_id_idx" ON "sandbox_products" USING btree ("store_id","id");--> statement-breakpoint
CREATE INDEX "sandbox_variants_product_idx" ON "sandbox_variants" USING btree ("product_id","position");