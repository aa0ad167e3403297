/* The token pasting the interface templates name their functions with (cblas_ + s + axpy). */
#ifndef EXOBLAS_INTERFACE_NAMES_H
#define EXOBLAS_INTERFACE_NAMES_H
#define EXOBLAS_CAT3_(a, b, c) a##b##c
#define EXOBLAS_CAT3(a, b, c) EXOBLAS_CAT3_(a, b, c)
#endif
