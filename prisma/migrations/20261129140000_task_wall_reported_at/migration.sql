-- AlterTable
ALTER TABLE "Task" ADD COLUMN     "wallReportedAt" TIMESTAMP(3);
