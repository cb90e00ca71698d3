CREATE TABLE "full_sync_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"full_sync_id" uuid NOT NULL,
	"product_ids" integer[] NOT NULL,
	"operation_id" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "full_sync_items" (
	"full_sync_id" uuid NOT NULL,
	"pim_product_id" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"batch_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "full_sync_items_full_sync_id_pim_product_id_pk" PRIMARY KEY("full_sync_id","pim_product_id")
);
--> statement-breakpoint
CREATE TABLE "full_syncs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"mode" text,
	"total_products" integer,
	"cursor_id" integer DEFAULT 0 NOT NULL,
	"fanned_out" boolean DEFAULT false NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "sync_watermark_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "sync_watermark_id" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "product_mappings" ADD COLUMN "pim_updated_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "full_sync_batches" ADD CONSTRAINT "full_sync_batches_full_sync_id_full_syncs_id_fk" FOREIGN KEY ("full_sync_id") REFERENCES "public"."full_syncs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "full_sync_items" ADD CONSTRAINT "full_sync_items_full_sync_id_full_syncs_id_fk" FOREIGN KEY ("full_sync_id") REFERENCES "public"."full_syncs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "full_syncs" ADD CONSTRAINT "full_syncs_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "full_sync_batches_sync_idx" ON "full_sync_batches" USING btree ("full_sync_id","id");--> statement-breakpoint
CREATE INDEX "full_sync_items_status_idx" ON "full_sync_items" USING btree ("full_sync_id","status");--> statement-breakpoint
CREATE INDEX "full_syncs_integration_idx" ON "full_syncs" USING btree ("integration_id","created_at");