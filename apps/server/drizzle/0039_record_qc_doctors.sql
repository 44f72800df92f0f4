ALTER TABLE "documents" ADD COLUMN "author" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "doctor" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "record_qc_faults" ADD COLUMN "doctor" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "record_qc_tasks" ADD COLUMN "doctor_visits" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "record_qc_tasks" ADD COLUMN "month_visits" jsonb DEFAULT '{}'::jsonb NOT NULL;