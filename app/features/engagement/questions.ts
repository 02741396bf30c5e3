/** The room's question and the owner's answer (docs/decisions/119), as both the forms and the server read them. */
import { z } from "zod";

export const QUESTION_MAX = 2000;
export const ANSWER_MAX = 5000;

export const questionSchema = z.object({
  question: z
    .string({ message: "Write your question." })
    .trim()
    .min(1, "Write your question.")
    .max(QUESTION_MAX, `Keep it under ${QUESTION_MAX} characters.`),
  document: z.string().trim().optional(),
});

export const answerSchema = z.object({
  question: z.coerce.number({ message: "No such question." }).int().positive("No such question."),
  answer: z
    .string({ message: "Write the answer." })
    .trim()
    .min(1, "Write the answer.")
    .max(ANSWER_MAX, `Keep it under ${ANSWER_MAX} characters.`),
  faq: z.boolean().default(false),
});
