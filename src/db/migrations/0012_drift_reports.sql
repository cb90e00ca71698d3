CREATE TABLE "drift_report_items" (
	"report_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"kind" text NOT NULL,
	"pim_product_id" integer,
	"storefront_product_id" bigint,
	"handle" text,
	"title" text,
	"fields" jsonb,
	CONSTRAINT "drift_report_items_report_id_seq_pk" PRIMARY KEY("report_id","seq")
);
--> statement-breakpoint
CREATE TABLE "drift_reports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"operation_id" text,
	"counts" jsonb,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "drift_report_items" ADD CONSTRAINT "drift_report_items_report_id_drift_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."drift_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drift_reports" ADD CONSTRAINT "drift_reports_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "drift_report_items_kind_idx" ON "drift_report_items" USING btree ("report_id","kind","seq");--> statement-breakpoint
CREATE INDEX "drift_reports_integration_idx" ON "drift_reports" USING btree ("integration_id","created_at");