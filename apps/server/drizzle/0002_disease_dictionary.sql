CREATE TABLE "diseases" (
	"disease_id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"icd10" text DEFAULT '' NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "diseases" ADD CONSTRAINT "diseases_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "diseases_app_name" ON "diseases" USING btree ("app_id","name");--> statement-breakpoint
CREATE INDEX "diseases_app_icd10" ON "diseases" USING btree ("app_id","icd10");