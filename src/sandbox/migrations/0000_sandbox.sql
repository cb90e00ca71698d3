-- The Shopify sandbox's tables, in migrations of its own (drizzle.__drizzle_migrations_sandbox), applied only where the
-- sandbox runs. Releases before the sandbox was a module made these tables in the production migrations (0002-0009):
-- on such a database every statement here finds its object already there, and the columns those migrations added
-- later are added where they are missing, so that a database of any earlier release and a new one end up the same.
-- Hand-edited from drizzle-kit's output (IF NOT EXISTS, duplicate constraints ignored); the snapshot is drizzle-kit's.
CREATE TABLE IF NOT EXISTS "sandbox_bulk_operations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"status" text DEFAULT 'CREATED' NOT NULL,
	"error_code" text,
	"type" text DEFAULT 'MUTATION' NOT NULL,
	"mutation" text NOT NULL,
	"staged_upload_path" text NOT NULL,
	"object_count" integer DEFAULT 0 NOT NULL,
	"root_object_count" integer DEFAULT 0 NOT NULL,
	"result" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sandbox_idempotency_keys" (
	"store_id" integer NOT NULL,
	"key" text NOT NULL,
	"field" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_idempotency_keys_store_id_key_pk" PRIMARY KEY("store_id","key")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sandbox_locations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"name" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sandbox_media" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" bigint NOT NULL,
	"original_source" text NOT NULL,
	"alt" text,
	"position" integer NOT NULL,
	"status" text DEFAULT 'UPLOADED' NOT NULL,
	"content" "bytea",
	"mime_type" text,
	"error_code" text,
	"error_message" text,
	"filename" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sandbox_metafield_definitions" (
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
CREATE TABLE IF NOT EXISTS "sandbox_product_metafields" (
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
CREATE TABLE IF NOT EXISTS "sandbox_product_publications" (
	"product_id" bigint NOT NULL,
	"publication_id" bigint NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_product_publications_product_id_publication_id_pk" PRIMARY KEY("product_id","publication_id")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sandbox_products" (
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
CREATE TABLE IF NOT EXISTS "sandbox_publications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"name" text NOT NULL,
	"auto_publish" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sandbox_staged_uploads" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"path" text NOT NULL,
	"content" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sandbox_stores" (
	"id" serial PRIMARY KEY NOT NULL,
	"domain" text NOT NULL,
	"name" text NOT NULL,
	"access_token_hash" text NOT NULL,
	"plan_name" text DEFAULT 'Basic' NOT NULL,
	"currency_code" text DEFAULT 'EUR' NOT NULL,
	"bucket_size" integer,
	"restore_rate" integer,
	"error_rate" double precision DEFAULT 0 NOT NULL,
	"timeout_rate" double precision DEFAULT 0 NOT NULL,
	"fail_after_commit_rate" double precision DEFAULT 0 NOT NULL,
	"latency_ms" integer DEFAULT 0 NOT NULL,
	"fault_seed" integer DEFAULT 1 NOT NULL,
	"variant_throttle_limit" integer,
	"config_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "sandbox_variants" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" bigint NOT NULL,
	"sku" text,
	"price" text DEFAULT '0.00' NOT NULL,
	"compare_at_price" text,
	"barcode" text,
	"option_values" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"inventory" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"position" integer NOT NULL,
	"inventory_policy" text DEFAULT 'DENY' NOT NULL,
	"tracked" boolean DEFAULT true NOT NULL,
	"unit_cost" text,
	"weight" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Columns the production migrations added after creating a table (0003, 0005, 0006, 0009), for a database
-- migrated by a release older than 0009.
ALTER TABLE "sandbox_stores" ADD COLUMN IF NOT EXISTS "bucket_size" integer;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN IF NOT EXISTS "restore_rate" integer;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN IF NOT EXISTS "error_rate" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN IF NOT EXISTS "timeout_rate" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN IF NOT EXISTS "fail_after_commit_rate" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN IF NOT EXISTS "latency_ms" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN IF NOT EXISTS "fault_seed" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN IF NOT EXISTS "config_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN IF NOT EXISTS "variant_throttle_limit" integer;--> statement-breakpoint
ALTER TABLE "sandbox_media" ADD COLUMN IF NOT EXISTS "filename" text;--> statement-breakpoint
ALTER TABLE "sandbox_variants" ADD COLUMN IF NOT EXISTS "inventory_policy" text DEFAULT 'DENY' NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_variants" ADD COLUMN IF NOT EXISTS "tracked" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_variants" ADD COLUMN IF NOT EXISTS "unit_cost" text;--> statement-breakpoint
ALTER TABLE "sandbox_variants" ADD COLUMN IF NOT EXISTS "weight" jsonb;--> statement-breakpoint
ALTER TABLE "sandbox_media" ALTER COLUMN "status" SET DEFAULT 'UPLOADED';--> statement-breakpoint
-- The media lifecycle (0006): images taken as READY before the sandbox fetched them have no file; they are fetched
-- again at the next sandbox start. Only where that migration had not run (no content column yet).
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'sandbox_media' AND column_name = 'content') THEN
    ALTER TABLE "sandbox_media" ADD COLUMN "content" bytea;
    UPDATE "sandbox_media" SET "status" = 'UPLOADED' WHERE "status" = 'READY' AND "content" IS NULL;
  END IF;
END $$;--> statement-breakpoint
ALTER TABLE "sandbox_media" ADD COLUMN IF NOT EXISTS "mime_type" text;--> statement-breakpoint
ALTER TABLE "sandbox_media" ADD COLUMN IF NOT EXISTS "error_code" text;--> statement-breakpoint
ALTER TABLE "sandbox_media" ADD COLUMN IF NOT EXISTS "error_message" text;--> statement-breakpoint
ALTER TABLE "sandbox_bulk_operations" ADD COLUMN IF NOT EXISTS "type" text DEFAULT 'MUTATION' NOT NULL;--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "sandbox_bulk_operations" ADD CONSTRAINT "sandbox_bulk_operations_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "sandbox_idempotency_keys" ADD CONSTRAINT "sandbox_idempotency_keys_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "sandbox_locations" ADD CONSTRAINT "sandbox_locations_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "sandbox_media" ADD CONSTRAINT "sandbox_media_product_id_sandbox_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."sandbox_products"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "sandbox_metafield_definitions" ADD CONSTRAINT "sandbox_metafield_definitions_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "sandbox_product_metafields" ADD CONSTRAINT "sandbox_product_metafields_product_id_sandbox_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."sandbox_products"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "sandbox_product_metafields" ADD CONSTRAINT "sandbox_product_metafields_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "sandbox_product_publications" ADD CONSTRAINT "sandbox_product_publications_product_id_sandbox_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."sandbox_products"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "sandbox_product_publications" ADD CONSTRAINT "sandbox_product_publications_publication_id_sandbox_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."sandbox_publications"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "sandbox_products" ADD CONSTRAINT "sandbox_products_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "sandbox_publications" ADD CONSTRAINT "sandbox_publications_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "sandbox_staged_uploads" ADD CONSTRAINT "sandbox_staged_uploads_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "sandbox_variants" ADD CONSTRAINT "sandbox_variants_product_id_sandbox_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."sandbox_products"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sandbox_bulk_operations_store_idx" ON "sandbox_bulk_operations" USING btree ("store_id","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sandbox_locations_store_idx" ON "sandbox_locations" USING btree ("store_id","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sandbox_media_product_idx" ON "sandbox_media" USING btree ("product_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "sandbox_metafield_definitions_uq" ON "sandbox_metafield_definitions" USING btree ("store_id","owner_type","namespace","key");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "sandbox_product_metafields_product_key_uq" ON "sandbox_product_metafields" USING btree ("product_id","namespace","key");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sandbox_product_metafields_lookup_idx" ON "sandbox_product_metafields" USING btree ("store_id","namespace","key","value");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "sandbox_products_store_handle_uq" ON "sandbox_products" USING btree ("store_id","handle");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sandbox_products_store_id_idx" ON "sandbox_products" USING btree ("store_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "sandbox_publications_store_name_uq" ON "sandbox_publications" USING btree ("store_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "sandbox_staged_uploads_path_uq" ON "sandbox_staged_uploads" USING btree ("path");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "sandbox_stores_domain_uq" ON "sandbox_stores" USING btree ("domain");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sandbox_variants_product_idx" ON "sandbox_variants" USING btree ("product_id","position");