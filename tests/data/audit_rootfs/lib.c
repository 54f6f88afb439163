int planted_value(void)
{
    return 42;
}
