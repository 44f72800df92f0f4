CREATE TABLE "assessment_scales" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"definition" jsonb NOT NULL,
	"builtin_key" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assessment_scales" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "formulas" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"decimals" integer DEFAULT 2 NOT NULL,
	"expression" text NOT NULL,
	"variables" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"builtin_key" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "formulas" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "indicator_template_formulas" (
	"template_id" integer NOT NULL,
	"formula_id" integer NOT NULL,
	"app_id" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "indicator_template_formulas_template_id_formula_id_pk" PRIMARY KEY("template_id","formula_id")
);
--> statement-breakpoint
ALTER TABLE "indicator_template_formulas" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "indicator_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "indicator_templates" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "scale_assessments" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"scale_id" integer NOT NULL,
	"patient_id" bigint NOT NULL,
	"visit_id" bigint,
	"answers" jsonb NOT NULL,
	"total" double precision NOT NULL,
	"band" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"assessed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "scale_assessments" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "assessment_scales" ADD CONSTRAINT "assessment_scales_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_scales" ADD CONSTRAINT "assessment_scales_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "formulas" ADD CONSTRAINT "formulas_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "formulas" ADD CONSTRAINT "formulas_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "indicator_template_formulas" ADD CONSTRAINT "indicator_template_formulas_template_id_indicator_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."indicator_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "indicator_template_formulas" ADD CONSTRAINT "indicator_template_formulas_formula_id_formulas_id_fk" FOREIGN KEY ("formula_id") REFERENCES "public"."formulas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "indicator_template_formulas" ADD CONSTRAINT "indicator_template_formulas_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "indicator_templates" ADD CONSTRAINT "indicator_templates_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "indicator_templates" ADD CONSTRAINT "indicator_templates_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scale_assessments" ADD CONSTRAINT "scale_assessments_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scale_assessments" ADD CONSTRAINT "scale_assessments_scale_id_assessment_scales_id_fk" FOREIGN KEY ("scale_id") REFERENCES "public"."assessment_scales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scale_assessments" ADD CONSTRAINT "scale_assessments_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scale_assessments" ADD CONSTRAINT "scale_assessments_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assessment_scales_app" ON "assessment_scales" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "formulas_app" ON "formulas" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "indicator_template_formulas_formula" ON "indicator_template_formulas" USING btree ("formula_id");--> statement-breakpoint
CREATE INDEX "indicator_template_formulas_app" ON "indicator_template_formulas" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "indicator_templates_app" ON "indicator_templates" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "scale_assessments_patient" ON "scale_assessments" USING btree ("patient_id","assessed_at");--> statement-breakpoint
CREATE INDEX "scale_assessments_scale" ON "scale_assessments" USING btree ("scale_id");--> statement-breakpoint
CREATE INDEX "scale_assessments_app" ON "scale_assessments" USING btree ("app_id");--> statement-breakpoint
CREATE POLICY "app_scope" ON "assessment_scales" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "formulas" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "indicator_template_formulas" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "indicator_templates" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "scale_assessments" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
ALTER TABLE "formulas" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "indicator_templates" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "indicator_template_formulas" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "assessment_scales" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "scale_assessments" FORCE ROW LEVEL SECURITY;
