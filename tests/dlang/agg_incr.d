/* Pins the DIF for: the optional increment of quantize/lquantize/llquantize is the action's last DIFO. */
BEGIN { @a = lquantize(3, 0, 10, 1, 4); @b = llquantize(5, 10, 0, 6, 20, arg0); @c = quantize(1, 2); @d = sum(3); }
