/** The investor pipeline's words (docs/decisions/118), shared by its page, its form and its CSV. */
import { SET_STAGES, type SetStage } from "~/db/enums";

export { SET_STAGES, type SetStage };

/** Stages that follow from what happened in the rooms. */
export const AUTOMATIC_STAGES = ["Invited", "Opened"] as const;
export const PIPELINE_STAGES = [...AUTOMATIC_STAGES, ...SET_STAGES] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number];

export const isSetStage = (value: unknown): value is SetStage => SET_STAGES.includes(value as SetStage);
export const isPipelineStage = (value: unknown): value is PipelineStage =>
  PIPELINE_STAGES.includes(value as PipelineStage);

/** One investor's standing with one venture (the group's rooms count as the venture "group"). */
export interface PipelineEntry {
  /** The investor's record (one per address, docs/decisions/112). */
  investorId: string;
  email: string;
  name: string;
  firm: string;
  /** A venture id, or null for the group's own rooms. */
  venture: string | null;
  ventureName: string;
  stage: PipelineStage;
  rooms: string[];
  /** The last open, download or question (ms), or the invitation's time. */
  lastActivity: number;
}
