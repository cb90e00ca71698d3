CREATE TABLE "adoptions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"import_unmatched" boolean DEFAULT false NOT NULL,
	"phase" text,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer,
	"operation_id" text,
	"import_id" text,
	"shop_products" integer,
	"pim_products" integer,
	"matched" integer,
	"matched_by" jsonb,
	"already_mapped" integer,
	"unmatched_shop" integer,
	"unmatched_pim" integer,
	"imported" integer,
	"unmatched_shop_list" jsonb,
	"unmatched_pim_list" jsonb,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "adoptions" ADD CONSTRAINT "adoptions_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "adoptions_integration_idx" ON "adoptions" USING btree ("integration_id","created_at");