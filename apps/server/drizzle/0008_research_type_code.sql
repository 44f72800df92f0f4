ALTER TABLE "research_subjects" DROP CONSTRAINT "research_subjects_type_id_research_project_types_id_fk";
--> statement-breakpoint
ALTER TABLE "research_subjects" ADD COLUMN "type_code" text DEFAULT 'cohort' NOT NULL;