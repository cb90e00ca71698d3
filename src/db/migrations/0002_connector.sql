CREATE TABLE "connector_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"scope" text NOT NULL,
	"name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "integrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"shop_id" integer NOT NULL,
	"pim_base_url" text NOT NULL,
	"pim_api_key_encrypted" text NOT NULL,
	"pim_api_secret_encrypted" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"last_sync_at" timestamp with time zone,
	"pim_status" jsonb,
	"storefront_status" jsonb,
	"checked_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_mappings" (
	"id" serial PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"pim_product_id" integer NOT NULL,
	"storefront_product_id" bigint,
	"storefront_variant_id" bigint,
	"sync_status" text DEFAULT 'pending' NOT NULL,
	"sync_error" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shops" (
	"id" serial PRIMARY KEY NOT NULL,
	"domain" text NOT NULL,
	"platform" text NOT NULL,
	"api_base_url" text,
	"access_token_encrypted" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"operation" text NOT NULL,
	"status" text NOT NULL,
	"records_processed" integer DEFAULT 0 NOT NULL,
	"records_failed" integer DEFAULT 0 NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "connector_tokens" ADD CONSTRAINT "connector_tokens_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_mappings" ADD CONSTRAINT "product_mappings_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_logs" ADD CONSTRAINT "sync_logs_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "connector_tokens_hash_uq" ON "connector_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "connector_tokens_integration_idx" ON "connector_tokens" USING btree ("integration_id");--> statement-breakpoint
CREATE UNIQUE INDEX "integrations_shop_uq" ON "integrations" USING btree ("shop_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_mappings_integration_product_uq" ON "product_mappings" USING btree ("integration_id","pim_product_id");--> statement-breakpoint
CREATE INDEX "product_mappings_integration_status_idx" ON "product_mappings" USING btree ("integration_id","sync_status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "shops_domain_uq" ON "shops" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "sync_logs_integration_started_idx" ON "sync_logs" USING btree ("integration_id","started_at");