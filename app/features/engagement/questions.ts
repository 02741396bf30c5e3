/** The room's question and the owner's answer (docs/decisions/119), as both the forms and the server read them. */
import { z } from "zod";
import { requiredText } from "~/features/forms/text-field";

export const QUESTION_MAX = 2000;
export const ANSWER_MAX = 5000;

export const questionSchema = z.object({
  question: requiredText("question", QUESTION_MAX),
  document: z.string().trim().optional(),
});

export const answerSchema = z.object({
  question: z.coerce.number({ message: "No such question." }).int().positive("No such question."),
  answer: requiredText("answer", ANSWER_MAX),
  faq: z.boolean().default(false),
});
