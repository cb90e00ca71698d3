CREATE TABLE "drift_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"pim_product_id" integer NOT NULL,
	"storefront_product_id" bigint NOT NULL,
	"field" text NOT NULL,
	"expected" text,
	"actual" text,
	"source" text NOT NULL,
	"webhook_id" text,
	"detected_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"webhook_id" text NOT NULL,
	"shop_domain" text NOT NULL,
	"topic" text NOT NULL,
	"integration_id" integer,
	"outcome" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "drift_events" ADD CONSTRAINT "drift_events_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "drift_events_integration_idx" ON "drift_events" USING btree ("integration_id","detected_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_webhook_id_uq" ON "webhook_deliveries" USING btree ("webhook_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_received_idx" ON "webhook_deliveries" USING btree ("received_at");